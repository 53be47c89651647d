# frozen_string_literal: true

# Is 18xx.games's engine stuck on a stale corporation? For each FILE:ACTION given, loads the export up to the action
# before the one it refused and prints one JSON line: whether the entity it waits for is a corporation object other
# than the one its id now finds (a corporation reset by nationalisation is a new object; the site may keep the old
# one as the operator or in its list of trainless majors, and then refuses every move for it). Used by
# bench/e18xx_agreement.py.
#   ruby -I../shared/tools/ref18xx/shims -I../shared/tools/ref18xx/lib bench/ref_stale.rb FILE:ACTION ...
require 'set'
require 'json'
require 'engine'

ARGV.each do |arg|
  path, _, at = arg.rpartition(':')
  game = Engine::Game.load(JSON.parse(File.read(path)), at_action: at.to_i - 1)
  waiting = game.round.active_entities.first
  stale = waiting.respond_to?(:corporation?) && waiting.corporation? &&
          !game.corporation_by_id(waiting.id).equal?(waiting)
  puts JSON.generate({ file: File.basename(path), action: at.to_i, stale: stale, entity: waiting&.name })
end
