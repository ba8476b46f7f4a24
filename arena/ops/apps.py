from django.apps import AppConfig


class OpsConfig(AppConfig):
    name = "arena.ops"
    label = "ops"
    verbose_name = "Operations: health, service checks, the one-command arena"

    def ready(self) -> None:
        from arena.ops import worker_guard  # noqa: F401  (connects the worker's start-up sandbox check)
