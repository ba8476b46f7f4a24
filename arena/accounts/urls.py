from django.contrib.auth import views as auth_views
from django.urls import path

from arena.accounts import views
from arena.ops.throttle import throttled

urlpatterns = [
    path("signup/", views.signup, name="signup"),
    path("login/", throttled("login")(auth_views.LoginView.as_view()), name="login"),
    path("logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("language/", views.language_set, name="set_language"),
    path("", views.account, name="account"),
    path("tokens/<int:token_id>/revoke/", views.token_revoke_view, name="token_revoke"),
]
