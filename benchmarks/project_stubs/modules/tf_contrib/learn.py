"""``tf.contrib.learn``: only ``preprocessing.VocabularyProcessor`` (ids in order of first use, 0 for padding)."""
import pickle
import re
import types

import numpy

_TOKEN = re.compile(r"[A-Z]{2,}(?![a-z])|[A-Z][a-z]+(?=[A-Z])|[\'\w\-]+", re.UNICODE)


class _Vocabulary(dict):
    def __len__(self):
        return dict.__len__(self) + 1  # the unknown word, id 0


class VocabularyProcessor:
    def __init__(self, max_document_length, min_frequency=0, vocabulary=None, tokenizer_fn=None):
        self.max_document_length = max_document_length
        self.vocabulary_ = vocabulary if vocabulary is not None else _Vocabulary()
        self._frozen = vocabulary is not None

    def fit(self, raw_documents):
        for text in raw_documents:
            for word in _TOKEN.findall(text):
                self.vocabulary_.setdefault(word, dict.__len__(self.vocabulary_) + 1)
        self._frozen = True
        return self

    def transform(self, raw_documents):
        for text in raw_documents:
            ids = numpy.zeros(self.max_document_length, numpy.int64)
            for i, word in enumerate(_TOKEN.findall(text)[:self.max_document_length]):
                ids[i] = self.vocabulary_.get(word, 0)
            yield ids

    def fit_transform(self, raw_documents):
        documents = list(raw_documents)
        return self.fit(documents).transform(documents)

    def save(self, filename):
        with open(filename, "wb") as handle:
            pickle.dump((self.max_document_length, dict(self.vocabulary_)), handle)

    @classmethod
    def restore(cls, filename):
        with open(filename, "rb") as handle:
            length, words = pickle.load(handle)
        return cls(length, vocabulary=_Vocabulary(words))


preprocessing = types.SimpleNamespace(VocabularyProcessor=VocabularyProcessor)
