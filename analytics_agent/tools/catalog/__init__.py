"""Tools and text over what the database holds: ``list_tables``, ``describe_table``, the schema card."""
