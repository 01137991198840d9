"""Teaching widgets for the minisym course (import name: minisym_widgets)."""
