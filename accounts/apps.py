from django.apps import AppConfig


class AccountsConfig(AppConfig):
    """Site accounts around django-allauth: the profile page, claiming a guest player, the admin sign-in."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "accounts"

    def ready(self) -> None:
        from django.contrib.auth.signals import user_logged_in

        user_logged_in.connect(_complete_pending_join, dispatch_uid="accounts.complete_pending_join")


def _complete_pending_join(sender, request, user, **kwargs) -> None:
    """An invite link followed before signing up or in joins now (`league.views.joining`)."""
    if request is not None and hasattr(request, "session"):
        from league.views.joining import complete_pending_join

        complete_pending_join(request, user)
