"""``python -m kunken_scorer``: the ``kunken-scorer`` command (kunken_scorer/cli.py)."""

from kunken_scorer.cli import main

if __name__ == "__main__":
    main()
