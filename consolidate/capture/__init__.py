"""The capture loop: markers in transcripts → a durable queue → the dream drains it.

Everything here imports only the standard library: `tick` runs inside a hook on every prompt.
"""
