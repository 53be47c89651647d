# frozen_string_literal: true

# A trace of an 18xx.games export in the reference engine, for finding where our engine first differs:
# after every processed action, one JSON line with the round, who acts next, players' cash, and each started
# corporation's cash, share price, trains, tokens, loans and holders. Used by bench/trace_diff.py.
#   ruby -I../shared/tools/ref18xx/shims -I../shared/tools/ref18xx/lib bench/ref_trace.rb FILE.json
require 'set'
require 'json'
require 'engine'

data = JSON.parse(File.read(ARGV[0]))
game = Engine::Game.load(data, at_action: 0)
data['actions'].each do |action|
  next if action['type'] == 'message'

  game.process_action(action)
  game.raw_actions.last['id'] = action['id'] unless game.raw_actions.empty?
  break if game.exception

  corps = (game.corporations + [game.respond_to?(:national) ? game.national : nil]).compact.uniq
                                                                                  .select { |c| c.ipoed || c.tokens.any?(&:used) }
  line = {
    id: action['id'], round: game.round.class.name.split('::').last, turn: game.turn,
    acting: game.round.active_entities.map(&:name),
    actions: (e = game.round.active_entities.first) && game.round.active_step ? game.round.active_step.actions(e) : [],
    step: game.round.active_step&.class&.name&.split('::')&.last,
    cash: game.players.to_h { |p| [p.id, p.cash] },
    corps: corps.to_h do |c|
      [c.name, { cash: c.cash, price: c.share_price&.price, trains: c.trains.map(&:id),
                 tokens: c.tokens.select(&:used).map { |t| t.city&.hex&.id }, loans: c.respond_to?(:loans) ? c.loans.size : 0,
                 holders: c.share_holders.to_h { |h, p| [h.respond_to?(:id) ? h.id.to_s : h.name, p] } }]
    end,
    bank: game.bank.cash,
  }
  puts JSON.generate(line)
end
warn "refused: #{game.exception}" if game.exception
