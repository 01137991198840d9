"""``mx.io.ResizeIter`` and ``mx.io.PrefetchingIter``: iterators that wrap other iterators.

``ResizeIter(it, size)`` gives exactly ``size`` batches per epoch, starting ``it`` over when it
runs out. ``PrefetchingIter([it1, it2])`` joins the batches of several iterators into one
(data of it1, then of it2) and can rename their inputs. MXNet's PrefetchingIter reads the next
batch in a thread while you use the current one; minisym reads it at the same moments (when
it is made, after each batch it gives, and at ``reset()``) but synchronously, so the batches
and the order in which the wrapped iterators are called are MXNet's, with no thread.
"""

from .io import DataBatch, DataDesc, DataIter

__all__ = ["ResizeIter", "PrefetchingIter"]


class _CurrentBatch(DataIter):
    """A wrapper whose getdata / getlabel / getindex / getpad read ``self.current_batch``."""

    current_batch = None  # until the first batch is read

    def getdata(self):
        """The current batch's data (list of NDArray)."""
        return self.current_batch.data

    def getlabel(self):
        """The current batch's labels (list of NDArray)."""
        return self.current_batch.label

    def getindex(self):
        """The current batch's index."""
        return self.current_batch.index

    def getpad(self):
        """The current batch's padding rows."""
        return self.current_batch.pad


class ResizeIter(_CurrentBatch):
    """``size`` batches of ``data_iter`` per epoch: ``ResizeIter(NDArrayIter(x, batch_size=25),
    2)`` gives 2 batches of 25 rows; a shorter ``data_iter`` is reset and read again.

    ``reset_internal`` (default True): ``reset()`` also resets ``data_iter``; with False the
    next epoch goes on where the last one stopped.
    """

    def __init__(self, data_iter, size, reset_internal=True):
        super().__init__()
        self.data_iter = data_iter
        self.size = size
        self.reset_internal = reset_internal
        self.cur = 0
        self.provide_data = data_iter.provide_data
        self.provide_label = data_iter.provide_label
        self.batch_size = data_iter.batch_size
        if hasattr(data_iter, "default_bucket_key"):
            self.default_bucket_key = data_iter.default_bucket_key

    def reset(self):
        """Start a new epoch of ``size`` batches (resetting ``data_iter`` if reset_internal)."""
        self.cur = 0
        if self.reset_internal:
            self.data_iter.reset()

    def iter_next(self):
        """Take the next batch of ``data_iter`` (after a reset when it ran out); False once
        ``size`` batches were given this epoch."""
        if self.cur == self.size:
            return False
        try:
            self.current_batch = self.data_iter.next()
        except StopIteration:
            self.data_iter.reset()
            self.current_batch = self.data_iter.next()
        self.cur += 1
        return True


class PrefetchingIter(_CurrentBatch):
    """One iterator made of several: each batch holds the data (and labels) of the batches of
    ``iters`` in order; ``rename_data=[{'data': 'data_1'}, {'data': 'data_2'}]`` (one dict per
    iterator, old name -> new name) renames what ``provide_data`` says, ``rename_label`` the
    labels. All the iterators must give the same number of batches with the same ``pad``.
    """

    def __init__(self, iters, rename_data=None, rename_label=None):
        super().__init__()
        if not isinstance(iters, list):
            iters = [iters]
        self.n_iter = len(iters)
        assert self.n_iter > 0, (
            "PrefetchingIter needs at least one iterator: PrefetchingIter([iter1, iter2])"
        )
        self.iters = iters
        self.rename_data = rename_data
        self.rename_label = rename_label
        self.batch_size = self.provide_data[0][1][0]
        self.next_batch = [None] * self.n_iter
        self._prefetch()

    def _prefetch(self):
        """Read the next batch of every iterator (None for one that is at its end)."""
        for i, it in enumerate(self.iters):
            try:
                self.next_batch[i] = it.next()
            except StopIteration:
                self.next_batch[i] = None

    @property
    def provide_data(self):
        """``[DataDesc]`` of every iterator's data, in order, renamed by ``rename_data``."""
        return _provided([i.provide_data for i in self.iters], self.rename_data)

    @property
    def provide_label(self):
        """``[DataDesc]`` of every iterator's labels, in order, renamed by ``rename_label``."""
        return _provided([i.provide_label for i in self.iters], self.rename_label)

    def reset(self):
        """Reset every iterator and read the first batch of the new epoch."""
        for it in self.iters:
            it.reset()
        self._prefetch()

    def iter_next(self):
        """Make the read-ahead batches the current one and read the next; False at the end."""
        if self.next_batch[0] is None:
            for batch in self.next_batch:
                assert batch is None, "Number of entry mismatches between iterators"
            return False
        for i, batch in enumerate(self.next_batch):
            if batch is None:  # MXNet: an AttributeError reading None's pad
                raise AttributeError(
                    f"PrefetchingIter: iterator {i} has no batch left while "
                    "iterator 0 has: Number of entry mismatches between "
                    "iterators (give iterators of the same number of batches)"
                )
            assert batch.pad == self.next_batch[0].pad, (
                "Number of entry mismatches between iterators"
            )
        self.current_batch = DataBatch(
            sum([batch.data for batch in self.next_batch], []),
            sum([batch.label for batch in self.next_batch], []),
            self.next_batch[0].pad,
            self.next_batch[0].index,
            provide_data=self.provide_data,
            provide_label=self.provide_label,
        )
        self._prefetch()
        return True

    def next(self):
        """The next joined DataBatch; ``StopIteration`` at the end of the epoch."""
        if self.iter_next():
            return self.current_batch
        raise StopIteration


def _provided(descs_per_iter, renames):
    """The descriptions of all iterators joined; with ``renames`` each DataDesc gets its new
    name (and, as in MXNet, the default layout; a plain (name, shape) tuple is not renamed)."""
    if renames is None:
        return sum(descs_per_iter, [])
    return [
        DataDesc(_renamed(rename, x.name), x.shape, x.dtype)
        if isinstance(x, DataDesc)
        else DataDesc(*x)
        for rename, descs in zip(renames, descs_per_iter)
        for x in descs
    ]


def _renamed(rename, name):
    """``rename[name]``, or a KeyError that says what the renaming map needs."""
    try:
        return rename[name]
    except KeyError:
        raise KeyError(
            f"PrefetchingIter: the renaming map {rename!r} has no entry for "
            f"{name!r}: give one new name for each input the iterator provides, "
            f"e.g. {{{name!r}: {name + '_1'!r}}}"
        ) from None
