"""Solutions to lesson 8's exercises (try them yourself first)."""
import minisym as mx


def digits_iter(pixels, targets, batch_size):
    images = (pixels / 16).reshape(-1, 1, 8, 8)
    return mx.io.NDArrayIter(images, targets, batch_size=batch_size)


def loss_recorder(losses):
    def record(param):
        losses.append(dict(param.eval_metric.get_name_value())['cross-entropy'])
        param.eval_metric.reset_local()
    return record


def optimizer_params():
    return {'learning_rate': 0.5}
