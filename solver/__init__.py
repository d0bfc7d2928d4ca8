"""sweepbot's solver: knowledge arrays, text boards, the game simulator, strategies.

Pure: knows nothing of pixels, screens or mice.
"""
