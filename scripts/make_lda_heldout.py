#!/usr/bin/env python3
"""Writes examples/lda/heldout.csv: held-out documents for the LDA example's perplexity.

The example corpus is the first 2,000 documents of ../shared/data/debian-descriptions;
the held-out set is the next 200 documents of the full corpus, with each word mapped to
the example's vocabulary (words the example does not know are dropped) and documents
numbered from 1.

  python3 scripts/make_lda_heldout.py
"""
import csv
import gzip
import os

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FULL = os.path.join(ROOT, "..", "shared", "data", "debian-descriptions", "full")


def main():
    with open(os.path.join(ROOT, "examples", "lda", "vocab.txt")) as f:
        example = {w.strip(): i + 1 for i, w in enumerate(f)}
    with open(os.path.join(FULL, "vocab.txt")) as f:
        full = [w.strip() for w in f]
    rows = []
    with gzip.open(os.path.join(FULL, "tokens.csv.gz"), "rt") as f:
        reader = csv.reader(f)
        next(reader)
        for doc, word in reader:
            d = int(doc)
            if d > 2200:
                break
            if d > 2000 and full[int(word) - 1] in example:
                rows.append((d - 2000, example[full[int(word) - 1]]))
    with open(os.path.join(ROOT, "examples", "lda", "heldout.csv"), "w") as f:
        f.write("doc,word\n")
        for d, w in rows:
            f.write(f"{d},{w}\n")
    print(f"{len(rows)} tokens in {len({d for d, _ in rows})} documents")


if __name__ == "__main__":
    main()
