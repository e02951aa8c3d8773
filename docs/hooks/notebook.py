"""Build the tutorial notebooks from their Markdown sources and the snippet files they include.

    python docs/hooks/notebook.py          # write docs/train-mnist-notebook.ipynb (and .zh.ipynb)
    python docs/hooks/notebook.py --check  # exit 1 if a committed notebook is out of date

The builder is guide/notebook.py (this folder is on sys.path when the script runs).
"""

from guide.notebook import main

if __name__ == "__main__":
    raise SystemExit(main())
