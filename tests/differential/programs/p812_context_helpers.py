"""mx.context beyond cpu() / gpu(): num_gpus, cpu_pinned, device type ids, Context from a
Context, an unknown device type, gpu_memory_info and empty_cache on a machine without GPUs,
and `with ctx:` changing where new arrays go."""
from _common import err


def run(mx):
    out = {}
    out["num_gpus"] = mx.context.num_gpus()
    out["cpu_pinned"] = [str(mx.context.cpu_pinned(1)), mx.context.cpu_pinned().device_typeid]
    out["typeids"] = [mx.cpu().device_typeid, mx.context.Context("gpu", 1).device_typeid]
    out["from_context"] = str(mx.context.Context(mx.cpu(2)))
    out["equal"] = [mx.cpu(1) == mx.cpu(1), mx.cpu(1) == mx.cpu(0), mx.cpu() == "cpu(0)"]
    out["unknown_type"] = err(mx, mx.context.Context, "tpu", 0)
    out["gpu_memory_info"] = err(mx, mx.context.gpu_memory_info, 0)
    out["empty_cache_cpu"] = err(mx, mx.cpu().empty_cache)
    with mx.cpu(3):
        out["with"] = [str(mx.nd.ones((1,)).context), str(mx.context.current_context())]
    out["after_with"] = str(mx.context.current_context())
    out["devtype2str"] = sorted(mx.context.Context.devtype2str.items())
    return out
