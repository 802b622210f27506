from analytics_agent.cli.entry import main

main()
