from rest_framework.routers import DefaultRouter

router = DefaultRouter(trailing_slash=True)
router.include_root_view = False

urlpatterns = [*router.urls]
