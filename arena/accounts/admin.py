from django.contrib import admin

from arena.accounts.models import ApiToken, LanguagePreference


@admin.register(ApiToken)
class ApiTokenAdmin(admin.ModelAdmin[ApiToken]):
    list_display = ("name", "user", "prefix", "created", "last_used")
    search_fields = ("name", "user__username", "prefix")
    readonly_fields = ("prefix", "digest", "created", "last_used")


@admin.register(LanguagePreference)
class LanguagePreferenceAdmin(admin.ModelAdmin[LanguagePreference]):
    list_display = ("user", "language")
    list_filter = ("language",)
    search_fields = ("user__username",)
