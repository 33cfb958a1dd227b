"""One module per command: arguments at import time, the work imported inside run()."""
