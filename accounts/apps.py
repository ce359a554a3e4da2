from django.apps import AppConfig


class AccountsConfig(AppConfig):
    """Site accounts around django-allauth: the profile page, claiming a guest player, the admin sign-in."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "accounts"
