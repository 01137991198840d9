"""Partial shapes through FullyConnected, Convolution, Pooling and Embedding: what MXNet infers
forward and backward when some sizes are 0 (unknown), and where it raises. Conv fills the batch
and, where the stride is 1, spatial sizes back from a known output; FullyConnected fills the
batch; Pooling and Embedding fill nothing back. (Pooling with an unknown spatial size and a big
pad, where MXNet computes a size from its internal -1, is not recorded: minisym raises.)"""
from _partial import inferred


def run(mx):
    V = mx.sym.Variable
    data, c = V("data"), V("c")
    fc = mx.sym.FullyConnected(data, num_hidden=21, name="fc")
    fcn = mx.sym.FullyConnected(data, num_hidden=21, flatten=False, name="fcn")
    fcb = mx.sym.FullyConnected(data, num_hidden=21, no_bias=True, name="fcb")
    cv = mx.sym.Convolution(data, kernel=(3, 3), num_filter=4, name="cv")
    cvs = mx.sym.Convolution(data, kernel=(3, 3), stride=(2, 1), pad=(1, 0), dilate=(1, 2),
                             num_filter=4, name="cvs")
    cvg = mx.sym.Convolution(data, kernel=(3,), num_filter=4, num_group=2, name="cvg")
    cv3 = mx.sym.Convolution(data, kernel=(1, 3, 3), num_filter=4, name="cv3")
    cvl = mx.sym.Convolution(data, kernel=(3, 2), num_filter=4, layout="NHWC", name="cvl")
    pool = mx.sym.Pooling(data, kernel=(2, 2), stride=(2, 2), name="pool")
    gpool = mx.sym.Pooling(data, kernel=(2, 2), global_pool=True, pool_type="avg", name="gp")
    pool1 = mx.sym.Pooling(data, kernel=(3,), stride=(2,), pooling_convention="full", name="p1")
    pooll = mx.sym.Pooling(data, kernel=(2, 2), stride=(2, 2), layout="NHWC", name="pl")
    emb = mx.sym.Embedding(data, input_dim=10, output_dim=4, name="emb")
    return {
        # the example: a=(0, 10) -> FullyConnected(21) + c=(5, 0)
        "issue_example": inferred(mx, mx.sym.FullyConnected(V("a"), num_hidden=21, name="f")
                                  + c, a=(0, 10), c=(5, 0)),
        "fc_batch_unknown": inferred(mx, fc, data=(0, 10)),
        "fc_3d_batch_unknown": inferred(mx, fc, data=(0, 2, 3)),
        "fc_feature_unknown_raises": inferred(mx, fc, data=(5, 0)),
        "fc_middle_unknown_raises": inferred(mx, fc, data=(4, 0, 3)),
        "fc_weight_only": inferred(mx, fc, fc_weight=(21, 10)),
        "fc_output_only": inferred(mx, fc + c, c=(5, 21)),
        "fc_bias_column": inferred(mx, fc, data=(5, 10), fc_bias=(21, 1)),
        "fc_bias_wrong": inferred(mx, fc, data=(5, 10), fc_bias=(20,)),
        "fc_weight_wrong": inferred(mx, fc, data=(0, 10), fc_weight=(21, 11)),
        "fc_batch_conflict": inferred(mx, fc + c, data=(4, 10), c=(5, 21)),
        "fc_no_bias_back": inferred(mx, fcb + c, data=(0, 10), c=(5, 0)),
        "fc_hint_back": inferred(mx, mx.sym.FullyConnected(V("h", shape=(0, 10)), num_hidden=3,
                                                           name="fh") + V("k", shape=(7, 3))),
        "fcn_unknowns": inferred(mx, fcn, data=(0, 0, 4)),
        "fcn_back_fills_only_batch": inferred(mx, fcn + c, data=(0, 0, 4), c=(2, 3, 21)),
        "fcn_last_unknown": inferred(mx, fcn, data=(2, 3, 0)),
        "conv_batch_unknown": inferred(mx, cv, data=(0, 3, 8, 8)),
        "conv_channels_unknown": inferred(mx, cv, data=(2, 0, 8, 8)),
        "conv_height_unknown": inferred(mx, cv, data=(2, 3, 0, 8)),
        "conv_back": inferred(mx, cv + c, data=(0, 3, 0, 0), c=(2, 4, 6, 6)),
        "conv_output_only": inferred(mx, cv + c, c=(2, 4, 6, 6)),
        "conv_weight_only": inferred(mx, cv, cv_weight=(4, 3, 3, 3)),
        "conv_strided_back": inferred(mx, cvs + c, data=(0, 3, 0, 0), c=(2, 4, 5, 5)),
        "conv1d_group_back": inferred(mx, cvg + c, data=(0, 4, 0), c=(2, 4, 5)),
        "conv1d_group_channels_unknown": inferred(mx, cvg, data=(2, 0, 7)),
        "conv1d_group_indivisible": inferred(mx, cvg, data=(2, 3, 7)),
        "conv3d_back": inferred(mx, cv3 + c, data=(0, 3, 0, 0, 0), c=(2, 4, 5, 6, 6)),
        "conv_kernel_too_big": inferred(mx, cv, data=(2, 3, 2, 8)),
        "conv_wrong_ndim": inferred(mx, cv, data=(2, 3, 8)),
        "conv_nhwc": inferred(mx, cvl, data=(2, 8, 9, 5)),
        "conv_nhwc_back": inferred(mx, cvl + c, data=(0, 0, 9, 5), c=(2, 6, 8, 4)),
        "pool_batch_unknown": inferred(mx, pool, data=(0, 3, 8, 8)),
        "pool_channels_unknown": inferred(mx, pool, data=(2, 0, 8, 8)),
        "pool_height_unknown_raises": inferred(mx, pool, data=(2, 3, 0, 8)),
        "pool_nothing_back": inferred(mx, pool + c, data=(0, 3, 8, 8), c=(2, 3, 4, 4)),
        "pool_output_only": inferred(mx, pool + c, c=(2, 3, 4, 4)),
        "global_pool_spatial_unknown": inferred(mx, gpool, data=(2, 3, 0, 0)),
        "global_pool_nothing_back": inferred(mx, gpool + c, data=(0, 3, 5, 5), c=(2, 3, 1, 1)),
        "pool1d_full": inferred(mx, pool1, data=(0, 3, 8)),
        "pool1d_wrong_ndim": inferred(mx, pool1, data=(0, 3, 8, 8)),
        "pool_nhwc": inferred(mx, pooll, data=(2, 8, 6, 3)),
        "embedding_partial": inferred(mx, emb, data=(0, 5)),
        "embedding_nothing_back": inferred(mx, emb + c, data=(0, 5), c=(2, 0, 4)),
        "embedding_output_only": inferred(mx, emb + c, c=(2, 5, 4)),
        "embedding_weight_wrong": inferred(mx, emb, data=(2, 5), emb_weight=(10, 5)),
    }
