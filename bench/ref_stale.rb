# frozen_string_literal: true

# Why did 18xx.games's engine refuse an action of one of our exports: its rules, or its own bug? For each
# FILE:ACTION given, loads the export up to the action before and prints one JSON line:
# - stale: the entity it waits for is a corporation object other than the one its id now finds (a corporation
#   reset by nationalisation is a new object; the site may keep the old one as the operator or in its list of
#   trainless majors, and then refuses every move for it);
# - crash: playing the action raises an error of the engine's code (not a GameError, its way to refuse a move).
# Used by bench/e18xx_agreement.py.
#   ruby -I../shared/tools/ref18xx/shims -I../shared/tools/ref18xx/lib bench/ref_stale.rb FILE:ACTION ...
require 'set'
require 'json'
require 'engine'

ARGV.each do |arg|
  path, _, at = arg.rpartition(':')
  data = JSON.parse(File.read(path))
  game = Engine::Game.load(data, at_action: at.to_i - 1)
  waiting = game.round.active_entities.first
  stale = waiting.respond_to?(:corporation?) && waiting.corporation? &&
          !game.corporation_by_id(waiting.id).equal?(waiting)
  crash = nil
  begin
    game.process_action(data['actions'].find { |a| a['id'] == at.to_i })
    error = game.exception # the engine keeps what it refused or what went wrong
  rescue StandardError => e
    error = e
  end
  crash = "#{error.class}: #{error.message.lines.first&.strip}" if error && !error.is_a?(Engine::GameError)
  puts JSON.generate({ file: File.basename(path), action: at.to_i, stale: stale, crash: crash,
                       entity: waiting&.name })
end
