import os

# Keep TF's C++ start-up chatter out of test output; set before TF is imported.
os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")
