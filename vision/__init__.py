"""sweepbot's eyes: pure functions on numpy BGR images. Never touches mss or pyautogui."""
