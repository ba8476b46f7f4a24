"""Tables under /tables/: the list and the form, a table's page, its JSON, a move, a hint, a seat, a rematch."""

from django.urls import path

from arena.tables import views

app_name = "tables"

urlpatterns = [
    path("", views.table_list, name="list"),
    path("<slug:key>/", views.table_page, name="table"),
    path("<slug:key>/state.json", views.table_state_json, name="state"),
    path("<slug:key>/act", views.table_act, name="act"),
    path("<slug:key>/hint", views.table_hint_json, name="hint"),
    path("<slug:key>/seat", views.table_take_seat, name="seat"),
    path("<slug:key>/again", views.table_play_again, name="again"),
]
