"""Amazon Bedrock Converse: the provider, its wire mapping, stream assembly, errors and limits."""
