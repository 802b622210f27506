from analytics_agent.cli.entry import script

script()
