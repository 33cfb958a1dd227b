"""`python -m consolidate …`: the same entry point as the `consolidate` script."""

from consolidate.cli import main_entry

if __name__ == "__main__":
    main_entry()
