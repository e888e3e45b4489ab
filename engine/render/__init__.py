"""Pure renderers: (what a viewer may see, options) -> PNG bytes."""
