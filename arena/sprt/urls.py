"""Strength tests under /sprt/: the author's list, the start form, a test's live page, its JSON and stop."""

from django.urls import path

from arena.sprt import views

app_name = "sprt"

urlpatterns = [
    path("", views.test_list, name="list"),
    path("new/", views.test_start, name="start"),
    path("<int:pk>/", views.test_detail, name="detail"),
    path("<int:pk>/data.json", views.test_data_json, name="data"),
    path("<int:pk>/stop/", views.test_stop, name="stop"),
]
