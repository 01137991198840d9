# The learner's JupyterLab in Chinese (`make lab-zh`): the English one (learner_lab_config.py,
# loaded below), over the same root, lessons/, but opening the Chinese edition's start page,
# lessons/zh-CN/README.md (the file browser follows it into zh-CN/). JupyterLab's own words are
# in Chinese: lab-settings-zh/ holds the same settings plus the translation extension's zh_CN
# locale, whose words come from jupyterlab-language-pack-zh-CN. The widgets and checks speak
# Chinese because the Makefile starts JupyterLab, and so its kernels, with LANG=zh_CN.UTF-8.
from pathlib import Path

HERE = Path(__file__).resolve().parent

load_subconfig(str(HERE / "learner_lab_config.py"))  # noqa: F821 -- provided by Jupyter
c = get_config()  # noqa: F821 -- provided by Jupyter when it loads this file

c.LabApp.default_url = "/lab/tree/zh-CN/README.md"
c.LabApp.app_settings_dir = str(HERE / "lab-settings-zh")
