"""Date formats per language (``FORMAT_MODULE_PATH``): English keeps the arena's ISO-like dates; Russian and German
use Django's own conventions for their readers."""
