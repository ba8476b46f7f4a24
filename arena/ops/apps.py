from django.apps import AppConfig


class OpsConfig(AppConfig):
    name = "arena.ops"
    label = "ops"
    verbose_name = "Operations: health, service checks, the one-command arena"

    def ready(self) -> None:
        from arena.ops import production, worker_guard  # noqa: F401  (register the production check; connect the
        # worker's start-up sandbox check)
