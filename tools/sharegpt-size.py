# A file of ShareGPT's size and shape: 94,145 entries, multi-turn conversations, about 650 MB.
import json, random, sys
random.seed(1)
words = "the model server token batch cache prefix request latency engine queue prompt reply user answer question kernel memory tensor layer".split()
def text(n): return " ".join(random.choice(words) for _ in range(n))
with open(sys.argv[1], "w") as f:
    f.write("[")
    for i in range(94145):
        turns = []
        for t in range(random.choice([2, 2, 4, 6, 8])):
            n = max(4, int(random.lognormvariate(5.3, 1.0)))
            turns.append({"from": "human" if t % 2 == 0 else "gpt", "value": text(n)})
        f.write(("," if i else "") + json.dumps({"id": "g%d" % i, "conversations": turns}))
    f.write("]")
