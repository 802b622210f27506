"""The semantic model file: read (``model``), checked against the database (``check``), chosen for a
database (``load``), summarised for describe_table (``describe``) and written from the data (``starter``)."""
