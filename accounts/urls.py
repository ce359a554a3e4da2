"""Account pages of our own; sign-up, sign-in, sign-out and password reset are allauth's (restyled)."""

from django.urls import path

from accounts import views

urlpatterns = [
    path("admin/login/", views.admin_login, name="admin-login"),  # through the site's sign-in and its rate limits
    path("accounts/login/", views.LoginView.as_view(), name="account_login"),  # before allauth's: 429 when limited
    path("accounts/profile/", views.profile_page, name="profile"),
    path("claim/", views.claim_page, name="player-claim-form"),
    path("claim/<str:code>/", views.claim_page, name="player-claim"),
]
