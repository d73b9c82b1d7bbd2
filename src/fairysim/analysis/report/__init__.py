"""Report pages: the HTML page, figures, number formats, the sections every report shares, the index
and the replay page."""
