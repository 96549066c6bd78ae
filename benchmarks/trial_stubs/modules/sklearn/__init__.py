"""A tiny stand-in for scikit-learn (stub set ``sklearn``; it is not installed here).

Only what TF1 tutorials call for data and evaluation: ``datasets`` (``load_iris``,
``make_circles``, ``make_moons``, ``fetch_mldata("MNIST original")``: synthetic, seeded),
``model_selection.train_test_split``, ``utils.shuffle`` and
``metrics.confusion_matrix``. Any other ``sklearn`` module is missing, so a
program that needs one fails its legacy run and is left out of the figures.
"""
__version__ = "0.0-public-trial-stub"
