"""One module per what-if operation; ``registry.py`` maps option names to them."""
