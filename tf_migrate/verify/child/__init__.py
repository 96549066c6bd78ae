"""What runs inside a verified program's own process; loaded by file path, never importing ``tf_migrate``."""
