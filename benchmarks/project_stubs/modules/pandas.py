"""``pandas`` (stub set ``pandas``): imported at the top of a module that never uses it."""
