"""A query's result on its way to a model: fetched within bounds, its values as plain JSON, shaped to size."""
