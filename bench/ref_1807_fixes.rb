# frozen_string_literal: true

# The two methods (and one made public) 18xx.games's prealpha 1807 (tobymao/18xx at 111f7f698) names but never defines, so that its
# engine can load a game at all: without them every action raises NoMethodError (`game_end_check_train?`, asked
# after each action because GAME_END_CHECK is { train: :one_more_full_or_set }) and the first 4+4 train would too
# (its `signal_end_game` event). Both do what the site's own texts say: the first 4+4 (or 6G) train ends the game
# after the current set, a stock round and a set of three operating rounds (EVENTS_TEXT 'signal_end_game'; 1867's
# game_end_set_final_turn! gives the three). Loaded by bench/e18xx_agreement.py (ruby -r) for 1807 only; the
# reference itself is never changed. Two defects met by what it had never been sent are mended after them: a
# takeover's turn that does not end, and a minor's goods revenue withheld.
require 'set'
require 'engine'

module Engine
  module Game
    module G1807
      class Game
        def game_end_check_train?
          @phase.name.to_i >= 8
        end

        # `check_other` is private in G1807 but Engine::Route calls it on the game (`@game.check_other(self)`):
        # every route would raise NoMethodError.
        public :check_other

        def event_signal_end_game!
          @log << 'The first 4+4 or 6G train has been bought: the game ends after this set, a stock round ' \
                  'and three more operating rounds.'
        end
      end
    end
  end
end

# A minor taken over (G1807 Merge#process_buy_shares) has had its turn, but the step is not passed: when it is the
# round's last minor, the round wraps to its first minor and waits for it again (Merger#next_entity! stops at
# index 0 and relies on the step being passed), so the first minors would act twice. Ending the turn as a pass
# does: the next minor follows, or the round ends.
module Engine
  module Game
    module G1807
      module Step
        module TakeoverEndsTheTurn
          def process_buy_shares(action)
            super
            pass!
          end
        end

        Merge.prepend(TakeoverEndsTheTurn)
      end
    end
  end
end

# A goods train's revenue reaches the site as the run's extra_revenue (docs/rules/1807.md, the rulings), which its
# Dividend step adds (total_revenue); but a minor's automatic dividend (G1867 Dividend#skip!) chooses payout or
# withhold from the routes alone, so a minor earning only with goods trains would withhold them. It pays out what it
# earned in all.
module Engine
  module Game
    module G1867
      module Step
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
end
