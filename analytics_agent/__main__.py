from analytics_agent.cli import main

main()
