"""The game commands: /game (lobby, turns, seats, history, follow), /rules, /help, /settings,
community features, the scheduler.  Each cog module imports the kit, presentation and tables/."""
