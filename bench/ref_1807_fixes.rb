# frozen_string_literal: true

# Defects of 18xx.games's prealpha 1807 (tobymao/18xx at 111f7f698) that stop its engine from replaying a game played
# by 1807's own rules, patched here so that our exported games can be checked against it. Loaded by
# bench/e18xx_agreement.py (ruby -r) for 1807 only; the reference itself is never changed. Each patch names the
# site's bug, and does what the site's own 1807 texts and code say it means to do.
require 'set'
require 'engine'

module Engine
  module Game
    module G1807
      class Game
        # Bug: GAME_END_CHECK is { train: :one_more_full_or_set } but `game_end_check_train?` is never defined, so
        # every action raises NoMethodError (it is asked after each one). The first 4+4 (or 6G) train ends the game
        # (EVENTS_TEXT 'signal_end_game'; it opens phase 8).
        def game_end_check_train?
          @phase.name.to_i >= 8
        end

        # Bug: `check_other` is private in G1807 but Engine::Route calls it on the game (`@game.check_other(self)`):
        # every route would raise NoMethodError.
        public :check_other

        # Bug: the 4+4's event `signal_end_game` has no handler, so buying the first 4+4 raises NoMethodError. The
        # site's text: the first 4+4 ends the game after the current set, a stock round and a set of three
        # operating rounds (1867's game_end_set_final_turn! gives the three).
        def event_signal_end_game!
          @log << 'The first 4+4 or 6G train has been bought: the game ends after this set, a stock round ' \
                  'and three more operating rounds.'
        end

        # Bug: the market cell "165mzC" is a public company's par price (z: par_2, 'Public company par prices') but
        # its first letter makes its type :max_price, and only a cell whose type is a par type is among the par
        # prices an action's `share_price` is looked up in: a par at £165 cannot be read back ("h_to_args()
        # returned nil :share_price"). The seed pars public companies at £70-£200. Every cell with a par type is
        # looked up here.
        def share_prices
          @stock_market.market.flatten.compact.select { |price| price.types.intersect?(SharePrice::PAR_TYPES) }
        end

        # Bug (the site's shared Game#action_processed, met in 1807's stock rounds, where a sale can take a price to
        # the £0 cell): when a corporation closes after an action and the player to act can do nothing more, the
        # site skips him and passes the turn on, but its round still holds the step it found active before (Round
        # #active_step is remembered until the next action), so a player after him who can do nothing passes and
        # the turn stays with him: nobody can act again, or, when his pass was the round's last, the round ends
        # without its own end (Round::Stock#next_entity!: priority to the player after the last to pass, the
        # sold-out rises). Here the round asks afresh after each of these passes, so the turn goes on as after any
        # other pass, to the first player who can act or to the round's end (the seed: priority to the player after
        # the last one to do something).
        def action_processed(action)
          @closing_in_stock_round = @round.is_a?(Engine::Round::Stock)
          super
        ensure
          @closing_in_stock_round = false
        end

        attr_reader :closing_in_stock_round

        # Bug: 1867's home_token_locations knows only the types :minor and :major; 1807's public companies are
        # :public (its `major?`), so a parred public company would have no home city at all. A public company
        # chooses its home as 1867's major does (the seed: a city not joined to another stop, else one without a
        # token).
        def home_token_locations(corporation)
          return super unless major?(corporation)

          open_locations = hexes.select do |hex|
            hex.tile.cities.any? { |c| c.tokenable?(corporation, free: true) } &&
              hex.tile.cities.all? { |c| c.tokens.none? { |t| t&.type == :normal } }
          end
          unconnected = unconnected_hexes(open_locations)
          unconnected.empty? ? open_locations : unconnected
        end
      end

      module Step
        # Bug: 1867's train step makes a trainless corporation buy a train without asking whether it may hold one;
        # in 1807's phase 8 a minor's train limit is 0 (its PHASES), so the site would make a trainless minor buy a
        # train only to discard it at once. 1867 never meets this (its minors are gone by phase 8). A corporation
        # that may hold no train is not made to buy one.
        class BuyTrain
          def must_buy_train?(entity)
            super && @game.phase.train_limit(entity).positive?
          end

          # Rules difference (docs/rules/1807.md, Rulings, "Trade-ins"): the seed lets only systems trade trains in;
          # the site, as 1867, lets any corporation trade in from phase 8. The site has no systems, so here nobody
          # trades in: a corporation at its train limit in phase 8 is not kept in the train step for a trade-in our
          # rules do not offer it.
          def discountable_trains_allowed?(_entity)
            false
          end
        end

        # Bug: 1867's stock step starts a corporation by par only when its type is :major (can_ipo_any?, ipo_type);
        # 1807's public companies are :public (G1807 `major?`, and its market's par_2 'Public company par prices'),
        # so from phase 4 nobody could start one: the site would auction it like a minor. As 1867's majors, they
        # are parred from phase 4 when a home city is free (the seed: "大会社の開始（フェイズ4から可能）").
        class BuySellParShares
          def can_ipo_any?(entity)
            @game.phase.name.to_i >= self.class::MAJOR_PHASE && !bought? &&
              @game.corporations.any? do |c|
                @game.can_par?(c, entity) && @game.major?(c) && can_buy?(entity, c.shares.first&.to_bundle)
              end
          end

          def ipo_type(entity)
            return super unless @game.major?(entity)
            return "Cannot start till phase #{self.class::MAJOR_PHASE}" if @game.phase.name.to_i < self.class::MAJOR_PHASE
            return 'No home token locations are available' if @game.home_token_locations(entity).empty?

            :par
          end
        end

        # Bug: a player's pass is settled at the end of his turn (Step::BuySellParShares#pass!: he is unpassed when he
        # did something), but an auction the opener does not win ends his turn without it (win_bid: goto the winner;
        # G1867 then settles the winner's turn, G1807's private auction moves on to the next player). A player who had
        # passed, then opened an auction that another won, still counts as passed, and the round can end without his
        # passing again. Opening an auction, a minor's, a ferry's or an underground's, is the opener's move (the seed: a
        # turn is "売却 → 購入/入札" or a pass, and the round ends when everyone has passed in a row,
        # "全プレイヤーが連続してパスしたら終了"), so his turn was not a pass; and winning one is the winner's move (G1867
        # settles a minor's winner as having acted, G1807's private auction leaves him as he was): docs/rules/1807.md,
        # Rulings, "Priority". The opener is the player whose turn the round is at.
        module AuctionSettlesTheOpenersPass
          def win_bid(bid, company)
            @round.entities[@round.entity_index]&.unpass!
            bid.entity.unpass! unless bid.corporation
            super
          end
        end

        BuySellParShares.prepend(AuctionSettlesTheOpenersPass)

        # Rules difference (docs/rules/1807.md, Rulings, "P2-P5's border cost"): the seed's free lay of P2-P5 pays a
        # border cost the tile completes (only Falkirk, D8, has one: £80 of water), paid by the operating corporation;
        # the site's free lay pays nothing (Tracker#lay_tile works the border out and drops it). Here the site plays our
        # ruling: the border cost it works out for a private's lay is paid by the spender.
        module FreeLayPaysItsBorder
          def remove_border_calculate_cost!(tile, entity_or_entities, spender)
            cost, types = super
            spender.spend(cost, @game.bank) if cost.positive?
            [cost, types]
          end
        end

        SpecialTrack.prepend(FreeLayPaysItsBorder)

        # A minor taken over (G1807 Merge#process_buy_shares) has had its turn, but the step is not passed: when it is
        # the round's last minor, the round wraps to its first minor and waits for it again (Merger#next_entity! stops
        # at index 0 and relies on the step being passed), so the first minors would act twice. Ending the turn as a
        # pass does: the next minor follows, or the round ends.
        module TakeoverEndsTheTurn
          def process_buy_shares(action)
            super
            pass!
          end
        end

        Merge.prepend(TakeoverEndsTheTurn)
      end
    end

    module G1867
      module Step
        # A goods train's revenue reaches the site as the run's extra_revenue (docs/rules/1807.md, the rulings), which
        # its Dividend step adds (total_revenue); but a minor's automatic dividend (G1867 Dividend#skip!) chooses payout
        # or withhold from the routes alone, so a minor earning only with goods trains would withhold them. It pays out
        # what it earned in all.
        module MinorPaysItsExtraRevenue
          def skip!
            return super unless @game.minor?(current_entity) && extra_revenue.positive?

            process_dividend(Action::Dividend.new(current_entity, kind: 'payout'))
          end
        end

        Dividend.prepend(MinorPaysItsExtraRevenue)
      end
    end
  end

  # Bug: the site asks whether the game ends only after an action. A 4+4 exported at the end of a set of operating
  # rounds (G1807 or_set_finished, between rounds) is then noticed at the next action: in the merger round of that
  # turn if anyone acts there, else in the next stock round, a turn later, which moves the end a whole turn. The end
  # is asked as the 4+4 comes, as after a purchase. (Prepended: G1807's own or_set_finished does the export.)
  #
  # And when no action follows the export at all (every company has closed: the rounds that remain play themselves),
  # the site's round loop (Game#process_action) still asks end_now? with the timing it read after the last action,
  # before the 4+4, and plays on to turn 100 ("dnf"). The end found at the export counts there too.
  module G1807EndOnExport
    def or_set_finished
      super
      game_end_check
    end

    def end_now?(after)
      super(after || @game_end_trigger&.last)
    end

    def end_game!(reason = nil)
      super(reason || @game_end_trigger&.first)
    end
  end
  Game::G1807::Game.prepend(G1807EndOnExport)

  # The round's side of Game#action_processed above: a skip there is followed by a fresh look for the active step.
  module G1807StockAsksAfresh
    def skip_steps
      super
      clear_cache! if @game.is_a?(Engine::Game::G1807::Game) && @game.closing_in_stock_round
    end
  end
  Round::Stock.prepend(G1807StockAsksAfresh)

  # Bug (the site's shared Route, met in 1807's London): a route of one connection is rebuilt from its hexes alone,
  # taking the first chain that touches any token of the corporation, and the action's `nodes` (which city of a
  # hex the route uses) are read only for routes of two or more connections. In London's inset two cities share
  # one edge, so M29-1 -> V26 (a token at each end) is read back as M29-0 -> V26 and refused by 1807's London rule.
  # Here, for 1807, a one-connection route with `nodes` takes the chain through the most of them, as the site does
  # for longer routes (Route#find_pairwise_chain).
  module G1807RouteNodes
    def connection_data
      return super unless !@connection_data && @node_signatures && @connection_hexes&.one? &&
                          @game.is_a?(Engine::Game::G1807::Game) && !@connection_hexes[0].include?('local')

      wanted = @node_signatures
      @connection_data = [] # as the site's own: the other routes' paths, asked next, may ask this route's
      other_paths = compute_other_paths
      chains = find_matching_chains(@connection_hexes[0]).select do |ch|
        ch[:nodes].any? { |node| @game.city_tokened_by?(node, corporation) } && (ch[:paths] & other_paths).empty?
      end
      best = chains.each_with_index.max_by { |ch, i| [ch[:nodes].count { |n| wanted.include?(n.signature) }, -i] }
      left, right = best&.first&.dig(:nodes)
      @node_signatures = nil
      @connection_data << { left: left, right: right, chain: best[0] } if left && right
      @connection_data
    end
  end
  Route.prepend(G1807RouteNodes)

  # Rules difference (docs/rules/1807.md, Rulings, "Goods trains from the depot only"): a card handed in or discarded
  # goes back to the bank as the side it was bought as; only a new card may be bought as its goods side. The site keeps
  # both sides of a card in the bank (Train#variants), so it would sell a discarded 5 as a 3G, and its train step
  # (min_depot_price, the least of the cheapest card's sides) makes a trainless corporation with £450-£549 buy a train
  # when the only 5 left is a discard, one our rules let pass. Here the site plays our ruling: a card that comes back to
  # the bank keeps only the side it was bought as (the site's Train#remove_variants!, as its 1822 does for a discard).
  module G1807DiscardKeepsItsSide
    def reclaim_train(train)
      super
      train.remove_variants! if @game.is_a?(Engine::Game::G1807::Game)
    end
  end
  Depot.prepend(G1807DiscardKeepsItsSide)
end
