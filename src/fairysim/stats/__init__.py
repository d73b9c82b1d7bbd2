"""Statistics on games' outputs: intervals, corrected families, precision stopping, rankings, turn
order."""
