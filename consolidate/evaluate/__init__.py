"""`consolidate eval`: measured quality of the dream over labeled, seeded scenarios."""
