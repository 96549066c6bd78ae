"""``tf.contrib.slim``: only ``model_analyzer.analyze_vars``, printing slim's table (header, a line per variable with
its name, dtype and shape, size and bytes, then the totals), as ``contrib/slim/python/slim/model_analyzer.py`` did."""
import types


def _analyze_vars(variables, print_info=False):
    sizes = [(var, int(var.get_shape().num_elements() or 0)) for var in variables]
    total = sum(size for _, size in sizes)
    total_bytes = sum(size * var.dtype.size for var, size in sizes)
    if print_info:
        print("---------\nVariables: name (type shape) [size]\n---------")
        for var, size in sizes:
            dims = "x".join(str(d) for d in var.get_shape())
            print("%s (%s %s) [%d, bytes: %d]" % (var.name, var.dtype.name, dims, size, size * var.dtype.size))
        print("Total size of variables: %d\nTotal bytes of variables: %d" % (total, total_bytes))
    return total, total_bytes


model_analyzer = types.SimpleNamespace(analyze_vars=_analyze_vars)
