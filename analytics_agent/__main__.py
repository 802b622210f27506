from analytics_agent.cli.app import main

main()
