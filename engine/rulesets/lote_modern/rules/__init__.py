"""The Modern Era supplement's charts and formulas, as pure functions over plain values."""
