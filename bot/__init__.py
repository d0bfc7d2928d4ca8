"""sweepbot's hands: the only package that touches the real screen and mouse."""
