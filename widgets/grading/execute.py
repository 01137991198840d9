"""nbgrader's Execute, except that one stuck cell no longer drops the whole submission."""

from queue import Empty
from time import monotonic

import nbformat
from jupyter_core.utils import run_sync
from nbclient.exceptions import CellTimeoutError, DeadKernelError
from nbgrader.preprocessors import Execute
from traitlets import Integer

from ..exercises._check import _


class ExecuteUntilStuck(Execute):
    """Run the notebook; a cell past the time limit is interrupted, and if the kernel does not
    answer (a loop inside compiled code ignores interrupts) or has died, the cells after it are
    left unrun, each saying why. The marks do not depend on this run: ``GradeApart`` graded each
    exercise in a process of its own before it."""

    interrupt_on_timeout = False
    answer_wait = Integer(10, help="Seconds an interrupted kernel has to answer again.").tag(
        config=True
    )

    def preprocess(self, nb, resources=None, km=None):
        self._stuck_at = None
        return super().preprocess(nb, resources, km)

    def preprocess_cell(self, cell, resources, index):
        if self._stuck_at is not None:
            if cell.cell_type == "code":
                cell.outputs = [_note(self._why)]
            return cell, self.resources
        try:
            return super().preprocess_cell(cell, resources, index)
        except DeadKernelError:
            self._stuck_at = index
            self._why = _("Not run: the kernel died in cell {number}.").format(number=index + 1)
            cell.outputs.append(_note(self._why))
            return cell, self.resources
        except CellTimeoutError:
            run_sync(self.km.interrupt_kernel)()
            if not run_sync(self._answers)(self.answer_wait):
                self._stuck_at, self.shutdown_kernel = index, "immediate"
                self._why = _(
                    "Not run: cell {number} was still running after {seconds} s and "
                    "its kernel did not answer an interrupt."
                ).format(number=index + 1, seconds=self.timeout)
            cell.outputs.append(
                nbformat.v4.new_output(
                    "error",
                    ename="CellTimeoutError",
                    evalue="",
                    traceback=[
                        _("Stopped: this cell was still running after {seconds} s.").format(
                            seconds=self.timeout
                        )
                    ],
                )
            )
            return cell, self.resources

    async def _answers(self, seconds):
        """Whether the kernel answers a kernel_info request within ``seconds``."""
        asked = self.kc.kernel_info()
        deadline = monotonic() + seconds
        while (left := deadline - monotonic()) > 0:
            try:
                reply = await self.kc.shell_channel.get_msg(timeout=left)
            except Empty:
                return False
            if reply["parent_header"].get("msg_id") == asked:
                return True
        return False


def _note(text):
    return nbformat.v4.new_output("stream", name="stdout", text=text + "\n")
