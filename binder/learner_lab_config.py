# The learner's JupyterLab (`make lab`): the course's start page open in the first minute, no
# "Jupyter news" prompt, and none of the instructor's grading menus (nbgrader comes with the
# test tools; `make instructor` opens JupyterLab with them).
from pathlib import Path

HERE = Path(__file__).resolve().parent

c = get_config()  # noqa: F821 -- provided by Jupyter when it loads this file

c.LabApp.default_url = "/lab/tree/README.md"  # lessons/README.md: the root is lessons/
c.LabApp.app_settings_dir = str(HERE / "lab-settings")  # Markdown opens as a page; no news
c.LabApp.news_url = None
c.LabApp.check_for_updates_class = "jupyterlab.handlers.announcements.NeverCheckForUpdate"
c.ServerApp.jpserver_extensions.update(
    {
        "nbgrader.server_extensions.formgrader": False,
        "nbgrader.server_extensions.validate_assignment": False,
        "nbgrader.server_extensions.assignment_list": False,
        "nbgrader.server_extensions.course_list": False,
    }
)
