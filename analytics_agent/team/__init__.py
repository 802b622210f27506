"""The team server's core: who asks (``Principal``), what they may see, and the audit trail.

Sign-in itself belongs to the HTTP edge (``mcp_server``); everything below it sees only a ``Principal``.
"""
