"""The Unicode data of UTS #58: the three properties (§3.4, §5.1: ``properties``), extended
grapheme clusters (UAX #29: ``graphemes``) and Table 3-3's parts (``parts``), for each bundled version."""
