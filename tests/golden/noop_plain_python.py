import numpy as np

print(np.arange(3).sum())
